"""What every game's rules share: a frozen dataclass with a dict round trip, a checked replace, and presets."""

from __future__ import annotations

import dataclasses


class GameRules:
    """Base of each game's frozen ``Rules`` dataclass (the subclass validates its fields in ``__post_init__``)."""

    @classmethod
    def _check_fields(cls, names) -> None:
        fields = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]  # each game's Rules is a dataclass
        unknown = sorted(set(names) - set(fields))
        if unknown:
            raise ValueError(f"unknown rules field {unknown[0]!r}; fields: {', '.join(fields)}")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)  # type: ignore[call-overload]  # each game's Rules is a dataclass

    @classmethod
    def from_dict(cls, data: dict):
        cls._check_fields(data)
        return cls(**data)

    def replace(self, **changes):
        """A copy with ``changes`` (validated like any new rules)."""
        self._check_fields(changes)
        return dataclasses.replace(self, **changes)


def preset(presets: dict, rules_type: type, rules):
    """A preset by name, or the ``rules_type`` given; an unknown name is a one-line error listing the presets."""
    if isinstance(rules, rules_type):
        return rules
    try:
        return presets[rules]
    except (KeyError, TypeError):
        raise ValueError(f"unknown rules {rules!r}; presets: {', '.join(presets)}") from None
