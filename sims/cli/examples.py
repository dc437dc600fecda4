"""The examples at the foot of each command's ``--help`` (tests/cli/test_help.py parses every one)."""
from __future__ import annotations

EXAMPLES = {
    "compile": ["sims compile                     # every game's kernels, one process per game",
                "sims compile cribbage --jobs 1"],
    "crib-tables": ["sims crib-tables --deals 20000 --iterate 2 --quiet   # self-play crib tables against Schell's"],
    "discard": ["sims discard 5H 5S JD 6C 4H KD --dealer               # every throw, best first",
                "sims discard 5H 5S JD 6C 4H KD --pone --crib exact,schell,hessel,self_play --all",
                "sims discard 5H 5S JD 6C 4H KD --dealer --score 95-110   # each throw's chance of winning",
                "sims discard 5H 5S JD 6C 4H KD --dealer --peg distilled  # and the kept cards' pegging"],
    "odds": ["sims odds --score 95-110 --score 35-37      # the dealer's chance from two positions",
             "sims odds --rules six-card-61 --figure board.png --out board.parquet"],
    "play": ["sims play --games 5000 --seed 1                          # the default (strongest) players",
             "sims play --rules six-card-61 --games 5000 --discard greedy,random   # one policy per seat",
             "sims play --game allfours --rules seven-up --games 5000 --play greedy,maxims",
             "sims play --game loo --rules five-card-pam-unlimited --games 200"],
    "peg": ["sims peg 7H 8C 5D --played KS,2S,5H --starter 2C --dealer   # every legal card, points for minus against",
            "sims peg 7H 8C 5D --played KS,2S,5H --starter 2C --dealer --thrown QD,3C --score 97-104 --json"],
    "policies": ["sims policies                  # every game's decisions and policies, defaults marked",
                 "sims policies --game allfours --json"],
    "review": ["sims review game.jsonl               # every decision graded against the expert, totals per player",
               "sims review game.jsonl --json"],
    "round-robin": ["sims round-robin --games 400 --quiet",
                    "sims round-robin --policies expected_peg+distilled,expected_net+defensive --games 2000"],
    "run": ["sims run --deals 200000 --discard greedy --peg greedy --seed 1 --out data/runs/demo --quiet",
            "sims run spec.toml --seed 2               # settings from a TOML file; flags override its keys",
            "sims run --game loo --games 100000 --workers 2 --out data/runs/loo --json --quiet"],
    "verify": ["sims verify data/runs/demo            # every file against the manifest, before pandas or DuckDB read it"],
    "score": ["sims score 5H 5C 5S JD --starter 5D       # counts aloud: fifteen two, ... = 29",
              "sims score 5H 6H 7H 8H --starter 9C --crib   # the crib flush needs the starter"],
    "simulate": ["sims simulate --deals 100000 --seed 1                 # the default (strongest) players",
                 "sims simulate --deals 100000 --discard expected_net --peg defensive --seed 1",
                 "sims simulate --game allfours --deals 100000 --play maxims:knave=0",
                 "sims simulate --game loo --rule players=7 --deals 50000 --declare threshold"],
    "strength": ["sims strength --deals 20000 --games 1000 --quiet   # self-play against the published expert "
                 "figures"],
}


def epilog(command: str) -> str:
    """The ``examples:`` block of a command's help."""
    return "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[command])
