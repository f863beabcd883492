"""RuleSet: every house rule of RULES.md section 8 as a typed field, official by default.

A RuleSet is immutable, validated on creation (`InvalidRules` names the offending option) and
round-trips through plain JSON-able dicts, so it can be stored per server and per game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

Deck = Literal["classic108", "swap112", "shuffle112", "no_mercy168", "flip112"]
StartingPlayer = Literal["left", "dealer", "random"]
StarterWild = Literal["choose", "redraw"]
Wd4Rule = Literal["color", "no_playable", "any"]
ChallengeGuilty = Literal["official", "de"]
TwoPlayerReverse = Literal["skip", "pass"]
Stacking = Literal["off", "same", "mixed"]
LastCardSwap = Literal["win", "apply"]
LastCardShuffle = Literal["apply", "win"]
CustomEffect = Literal["none", "swap_hands", "others_draw_2", "play_again", "draw_to_7"]
Scoring = Literal["standard", "penalty", "cards_count", "elimination", "none"]
PenaltyEnd = Literal["lowest_wins", "reacher_loses"]

#: The allowed values of every option: a tuple of choices, or an inclusive (min, max) int range.
CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "deck": ("classic108", "swap112", "shuffle112", "no_mercy168", "flip112"),
    "starting_player": ("left", "dealer", "random"),
    "starter_wild": ("choose", "redraw"),
    "wd4_rule": ("color", "no_playable", "any"),
    "challenge_guilty": ("official", "de"),
    "two_player_reverse": ("skip", "pass"),
    "stacking": ("off", "same", "mixed"),
    "last_card_swap": ("win", "apply"),
    "last_card_shuffle": ("apply", "win"),
    "custom_effect": ("none", "swap_hands", "others_draw_2", "play_again", "draw_to_7"),
    "scoring": ("standard", "penalty", "cards_count", "elimination", "none"),
    "penalty_end": ("lowest_wins", "reacher_loses"),
}
INT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "hand_size": (1, 20),
    "challenge_fail_draw": (0, 20),
    "uno_penalty": (0, 10),
    "false_catch_penalty": (0, 10),
    "target": (1, 1_000_000),
    "mercy_limit": (0, 200),
    "knockout_bonus": (0, 1000),
}


class InvalidRules(ValueError):
    """A rule set with an unknown option, a value out of range, or options that contradict."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RuleSet:
    deck: Deck = "classic108"
    hand_size: int = 7
    starting_player: StartingPlayer = "left"
    starter_wild: StarterWild = "choose"
    wd4_rule: Wd4Rule = "color"
    wd4_challenge: bool = True
    challenge_guilty: ChallengeGuilty = "official"
    challenge_fail_draw: int = 6
    two_player_reverse: TwoPlayerReverse = "skip"
    stacking: Stacking = "off"
    deflect_d2: bool = False
    deflect_wd4: bool = False
    deflect_skip: bool = False
    # A pending draw stack may be passed on with a Skip (to the next player) or sent back with
    # a Reverse, of the active colour: a common Show 'Em No Mercy house rule (off by default).
    stack_deflect: bool = False
    go_out_on_action: bool = True
    voluntary_draw: bool = True
    draw_until_playable: bool = False
    force_play_drawn: bool = False
    jump_in: bool = False
    seven_o: bool = False
    uno_penalty: int = 2
    false_catch_penalty: int = 0
    last_card_swap: LastCardSwap = "win"
    last_card_shuffle: LastCardShuffle = "apply"
    custom_effect: CustomEffect = "none"
    scoring: Scoring = "standard"
    penalty_end: PenaltyEnd = "lowest_wins"
    target: int = 500
    # Show 'Em No Mercy's mercy rule: a hand reaching this many cards is knocked out of the
    # round (0: off); the round's winner scores `knockout_bonus` per player knocked out.
    mercy_limit: int = 0
    knockout_bonus: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in CHOICES:
                if value not in CHOICES[f.name]:
                    allowed = ", ".join(CHOICES[f.name])
                    raise InvalidRules(f.name, f"{value!r} is not one of {allowed}")
            elif f.name in INT_RANGES:
                low, high = INT_RANGES[f.name]
                if type(value) is not int or not low <= value <= high:
                    raise InvalidRules(f.name, f"must be a whole number from {low} to {high}")
            elif type(value) is not bool:
                raise InvalidRules(f.name, "must be true or false")
        self._check_combinations()

    def _check_combinations(self) -> None:
        if self.wd4_rule == "any" and self.wd4_challenge:
            raise InvalidRules(
                "wd4_challenge", "with wd4_rule 'any' every Wild Draw Four is legal: turn it off"
            )
        if self.deflect_d2 and self.stacking != "off":
            raise InvalidRules("deflect_d2", "deflecting (no adding up) contradicts stacking")
        if self.deflect_wd4 and self.stacking != "off":
            raise InvalidRules("deflect_wd4", "deflecting a Wild Draw Four contradicts stacking")
        if self.custom_effect != "none" and self.deck == "classic108":
            raise InvalidRules("custom_effect", "the classic108 deck has no Customizable cards")
        if self.penalty_end != "lowest_wins" and self.scoring != "penalty":
            raise InvalidRules("penalty_end", "only applies to penalty scoring")
        if self.mercy_limit and self.mercy_limit < self.hand_size + MERCY_MARGIN:
            raise InvalidRules(
                "mercy_limit",
                f"must be off (0) or at least the hand size plus {MERCY_MARGIN}",  # (rule_errors)
            )

    @property
    def challenge_possible(self) -> bool:
        return self.wd4_challenge and self.wd4_rule != "any"

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated; unknown names raise InvalidRules)."""
        unknown = set(changes) - OPTION_NAMES
        if unknown:
            raise InvalidRules(sorted(unknown)[0], "no such option")
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changes(self) -> dict[str, Any]:
        """Only the options that differ from the official rules."""
        official = RuleSet()
        return {k: v for k, v in self.to_dict().items() if getattr(official, k) != v}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """A validated RuleSet from stored data; options missing from `data` take their default."""
        if not isinstance(data, dict):
            raise InvalidRules("rules", "must be a mapping of option names to values")
        unknown = set(data) - OPTION_NAMES
        if unknown:
            raise InvalidRules(sorted(unknown)[0], "no such option")
        return cls(**data)

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        try:
            return PRESETS[name]
        except KeyError:
            raise InvalidRules("preset", f"unknown preset {name!r}") from None


OPTION_NAMES: Final = frozenset(f.name for f in fields(RuleSet))
#: A deal never knocks anyone out: the mercy limit is above a hand plus a starter's penalty.
MERCY_MARGIN: Final = 5

#: Named rule sets: the official rules and one for each source sheet of RULES.md section 7.
PRESETS: Final[dict[str, RuleSet]] = {
    "official": RuleSet(),
    # Norwegian sheet: official play, one round without points.
    "norway": RuleSet(scoring="none"),
    # German sheet, scoring method 2: penalty points, whoever reaches 200 loses.
    "germany": RuleSet(
        deck="swap112",
        starting_player="dealer",
        wd4_rule="no_playable",
        challenge_guilty="de",
        two_player_reverse="pass",
        deflect_d2=True,
        deflect_wd4=True,
        deflect_skip=True,
        go_out_on_action=False,
        custom_effect="swap_hands",
        scoring="penalty",
        penalty_end="reacher_loses",
        target=200,
    ),
    # Popular house rules, for tables that like chaos.
    "party": RuleSet(stacking="mixed", jump_in=True, seven_o=True, draw_until_playable=True),
    # Show 'Em No Mercy (docs/playing.md): its 168 cards, draw until you can play and play it,
    # stacking by equal or higher value, 7-0, the mercy rule at 25 cards; one round decides
    # (the sheet's optional scoring: `scoring standard`, first to 1000, 250 a knock-out).
    "no_mercy": RuleSet(
        deck="no_mercy168",
        stacking="mixed",
        draw_until_playable=True,
        force_play_drawn=True,
        seven_o=True,
        mercy_limit=25,
        knockout_bonus=250,
        scoring="none",
        target=1000,
    ),
    # UNO Flip (docs/playing.md): its 112 two-sided cards; draw one when you cannot play and
    # you may play it; the Wild Draw Two and Wild Draw Colour follow the Wild Draw Four's rule
    # (no card of the active colour, challengeable); scored on the side the round ended on,
    # first to 500.
    "flip": RuleSet(deck="flip112"),
}
PRESETS["germany_cards"] = replace(
    PRESETS["germany"], scoring="cards_count", penalty_end="lowest_wins", target=500
)
