"""What discord.py's public answer path costs over the raw one it replaced: microseconds per answer.

Until issue 34 the bot posted its answers and table edits through discord.py's private request
builders and never read Discord's reply (an interaction callback without `?with_response=1`
answers 204; a raw PATCH's body was dropped). Through the public API (`InteractionResponse`,
`edit_original_response`, the follow-up webhook, `PartialMessage.edit`) discord.py asks for that
reply and parses it into an `InteractionCallbackResponse` / `Message`. Both paths build the same
request, so the difference is that parse. This times, interleaved A B A B in one process:

- A, `build`: the request of a hand answer (embed, a row of card buttons) as both paths build it
  (`interaction_message_response_params`);
- B, `build+parse`: the same, then Discord's reply to it parsed as the public path does;
- the same for a table edit (`handle_message_parameters`, then a `Message`).

Prints µs per answer and per edit; asserts nothing. The whole bot's figure (CPU per interaction,
this revision against another) is `interaction_latency.py --baseline REV`.
Run: python benchmarks/answer_parsing.py [--seconds 1] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any, cast

import discord
from discord.http import handle_message_parameters
from discord.interactions import InteractionCallbackResponse
from discord.webhook.async_ import interaction_message_response_params

from bot.ui.hand_message import render_hand
from bot.ui.table_message import render_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.i18n_render import mid_game, per_call

CHANNEL, GUILD, APP, USER = 10, 20, 30, 1
AUTHOR: Any = {"id": str(APP), "username": "UNO", "discriminator": "0", "avatar": None, "bot": True}


def message_echo(message_id: int, payload: dict[str, Any], flags: int) -> dict[str, Any]:
    """Discord's copy of the message a request made: what it sends back."""
    return {
        "id": str(message_id),
        "channel_id": str(CHANNEL),
        "type": 0,
        "content": payload.get("content") or "",
        "embeds": payload.get("embeds", []),
        "components": payload.get("components", []),
        "attachments": [],
        "author": AUTHOR,
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-12-04T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": flags,
        "application_id": str(APP),
    }


def a_click(state: Any) -> discord.Interaction[Any]:
    """A component interaction as the gateway delivers it."""
    data: Any = {
        "id": str(discord.utils.time_snowflake(discord.utils.utcnow())),
        "application_id": str(APP),
        "type": 3,
        "token": "itok",
        "version": 1,
        "channel_id": str(CHANNEL),
        "guild_id": str(GUILD),
        "locale": "en-US",
        "guild_locale": "en-US",
        "attachment_size_limit": 10 * 1024 * 1024,
        "entitlements": [],
        "member": {
            "user": AUTHOR | {"id": str(USER), "bot": False},
            "roles": [],
            "flags": 0,
        },
        "data": {"custom_id": "uno:1:hand", "component_type": 2},
        "message": message_echo(5, {}, flags=64),
    }
    return discord.Interaction(data=data, state=state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    client = discord.Client(intents=discord.Intents.none())
    state: Any = client._connection  # (private: a benchmark's stand-in for the gateway)
    state.user = discord.ClientUser(state=state, data=AUTHOR)  # as if logged in
    game, names = mid_game()
    hand = render_hand(game, 1, game.seats[0], names, "en")
    table = render_table(game, 1, names, "en")
    interaction = a_click(state)
    kind = discord.InteractionResponseType.channel_message

    def hand_request() -> Any:
        return interaction_message_response_params(
            type=kind.value,
            flags=discord.MessageFlags(ephemeral=True),
            previous_allowed_mentions=state.allowed_mentions,
            embeds=list(hand.embeds),
            view=cast(Any, hand.view) if hand.view is not None else discord.utils.MISSING,
        )

    hand_reply: Any = {
        "interaction": {"id": str(interaction.id), "type": 3, "response_message_id": "6"},
        "resource": {
            "type": 4,
            "message": message_echo(6, hand_request().payload["data"], flags=64),
        },
    }
    channel = client.get_partial_messageable(CHANNEL)

    def table_request() -> Any:
        with handle_message_parameters(
            embeds=list(table.embeds),
            view=cast(Any, table.view) if table.view is not None else discord.utils.MISSING,
            previous_allowed_mentions=state.allowed_mentions,
        ) as params:
            return params

    table_reply: Any = message_echo(7, table_request().payload, 0)

    def hand_parsed() -> object:
        hand_request()
        return InteractionCallbackResponse(
            data=hand_reply, parent=interaction, state=state, type=kind
        )

    def table_parsed() -> object:
        table_request()
        return discord.Message(state=state, channel=channel, data=table_reply)

    runs: dict[str, list[float]] = {"hand A": [], "hand B": [], "table A": [], "table B": []}
    for _ in range(args.rounds):  # interleaved: A B A B, so drift hits both alike
        runs["hand A"].append(per_call(hand_request, args.seconds))
        runs["hand B"].append(per_call(hand_parsed, args.seconds))
        runs["table A"].append(per_call(table_request, args.seconds))
        runs["table B"].append(per_call(table_parsed, args.seconds))
    median = {name: statistics.median(values) for name, values in runs.items()}
    print(f"{'':14} {'build µs':>9} {'build+parse µs':>15} {'parse µs':>9}")
    for what, label in (("hand", "hand answer"), ("table", "table edit")):
        a, b = median[f"{what} A"], median[f"{what} B"]
        print(f"{label:14} {a:9.1f} {b:15.1f} {b - a:9.1f}")


if __name__ == "__main__":
    main()
