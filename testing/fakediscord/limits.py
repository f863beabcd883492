"""Discord's documented limits on messages, components, modals and commands.

Why: discord.py checks few of these, and the real Discord answers 400 "Invalid Form Body"
(code 50035). The emulator refuses the same payloads, so a bot that would break in production
breaks in the tests too. Every check returns ``Issue``s; ``form_errors`` nests them the way
Discord does (``{"content": {"_errors": [...]}}``).

Over 500 lines on purpose: it is Discord's table of limits, one small check each, in the
order of Discord's documentation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple

from .state import FLAG_COMPONENTS_V2, JSON, walk_components

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
OPTION_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
ATTACHMENTS_MAX = 10
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
CHOICES_MAX = 25

Path = tuple[str | int, ...]

SELECT_TYPES = (3, 5, 6, 7, 8)
V2_TOP_LEVEL = (1, 9, 10, 12, 13, 14, 17)
V2_IN_CONTAINER = (1, 9, 10, 12, 13, 14)
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
#: The locales Discord accepts as keys of `name_localizations`/`description_localizations`
#: (https://discord.com/developers/docs/reference#locales).
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


class Issue(NamedTuple):
    path: Path
    code: str
    message: str


def form_errors(issues: Iterable[Issue]) -> JSON:
    """Nest issues as Discord's ``errors`` object."""
    root: JSON = {}
    for issue in issues:
        node = root
        for part in issue.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": issue.code, "message": issue.message})
    return root


def _max_len(
    path: Path, value: Any, limit: int, out: list[Issue], *, required: bool = False
) -> None:
    if value is None or value == "":
        if required:
            out.append(Issue(path, "BASE_TYPE_REQUIRED", "This field is required"))
        return
    if not isinstance(value, str):
        value = str(value)
    if len(value) > limit:
        out.append(Issue(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


# -- messages -------------------------------------------------------------------------------


ALLOWED_MENTION_TYPES = ("roles", "users", "everyone")
ALLOWED_MENTION_IDS_MAX = 100


def check_allowed_mentions(allowed: Any, path: Path) -> list[Issue]:
    """Discord's rules for ``allowed_mentions``: known ``parse`` types, at most 100 ids per list,
    and a type is either parsed or listed by id, never both."""
    if allowed is None:
        return []
    out: list[Issue] = []
    parse = allowed.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in ALLOWED_MENTION_TYPES:
            out.append(
                Issue((*path, "parse", i), "ENUM_TYPE_COERCE", f"Value {kind!r} is not valid.")
            )
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if len(ids) > ALLOWED_MENTION_IDS_MAX:
            out.append(
                Issue((*path, kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
            )
        if ids and kind in parse:
            out.append(
                Issue(
                    (*path, "parse"),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
            )
    return out


def check_message(msg: JSON, *, creating: bool, prefix: Path = ()) -> list[Issue]:
    """Check a whole message (after an edit is applied: ``content``, ``embeds``, ...)."""
    out: list[Issue] = []
    content = msg.get("content") or ""
    embeds = msg.get("embeds") or []
    components = msg.get("components") or []
    flags = int(msg.get("flags") or 0)
    _max_len((*prefix, "content"), content, CONTENT_MAX, out)
    out += check_embeds(embeds, prefix)
    if flags & FLAG_COMPONENTS_V2:
        if content or embeds:
            out.append(
                Issue(
                    (*prefix, "content") if content else (*prefix, "embeds"),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content' and 'embeds' fields cannot be used when using "
                    "MessageFlags.IS_COMPONENTS_V2",
                )
            )
        out += check_components_v2(components, (*prefix, "components"))
    else:
        out += check_action_rows(components, (*prefix, "components"))
    out += check_allowed_mentions(msg.get("allowed_mentions"), (*prefix, "allowed_mentions"))
    attachments = msg.get("attachments") or []
    if len(attachments) > ATTACHMENTS_MAX:
        out.append(
            Issue(
                (*prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
            )
        )
    return out


def is_empty(msg: JSON) -> bool:
    return not (
        msg.get("content")
        or msg.get("embeds")
        or msg.get("components")
        or msg.get("attachments")
        or msg.get("sticker_ids")
        or msg.get("poll")
    )


def check_embeds(embeds: list[JSON], prefix: Path = ()) -> list[Issue]:
    out: list[Issue] = []
    if len(embeds) > EMBEDS_MAX:
        out.append(
            Issue((*prefix, "embeds"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        )
    total = 0
    for i, e in enumerate(embeds):
        p: Path = (*prefix, "embeds", i)
        title = e.get("title") or ""
        desc = e.get("description") or ""
        _max_len((*p, "title"), title, EMBED_TITLE_MAX, out)
        _max_len((*p, "description"), desc, EMBED_DESCRIPTION_MAX, out)
        total += len(str(title)) + len(str(desc))
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            out.append(
                Issue((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        for j, f in enumerate(fields):
            _max_len(
                (*p, "fields", j, "name"), f.get("name"), EMBED_FIELD_NAME_MAX, out, required=True
            )
            _max_len(
                (*p, "fields", j, "value"),
                f.get("value"),
                EMBED_FIELD_VALUE_MAX,
                out,
                required=True,
            )
            total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
        footer = (e.get("footer") or {}).get("text") or ""
        _max_len((*p, "footer", "text"), footer, EMBED_FOOTER_MAX, out)
        author = (e.get("author") or {}).get("name") or ""
        _max_len((*p, "author", "name"), author, EMBED_AUTHOR_MAX, out)
        total += len(str(footer)) + len(str(author))
    if total > EMBED_TOTAL_MAX:
        out.append(
            Issue(
                (*prefix, "embeds"),
                "MESSAGE_EMBEDS_TOTAL_LENGTH",
                f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
            )
        )
    return out


# -- components -----------------------------------------------------------------------------


def _check_custom_ids(components: list[JSON], path: Path, out: list[Issue]) -> None:
    seen: set[str] = set()
    for comp in walk_components(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if cid in seen:
            out.append(
                Issue(
                    path,
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated: {cid!r}",
                )
            )
        seen.add(cid)


def _check_custom_id(comp: JSON, path: Path, out: list[Issue]) -> None:
    cid = comp.get("custom_id")
    if not isinstance(cid, str) or not cid:
        out.append(Issue((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
    elif len(cid) > CUSTOM_ID_MAX:
        out.append(
            Issue((*path, "custom_id"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        )


def check_button(comp: JSON, path: Path, *, v2: bool = False) -> list[Issue]:
    out: list[Issue] = []
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        out.append(
            Issue((*path, "style"), "BASE_TYPE_CHOICES", f"Value must be one of 1-6, not {style}")
        )
    if style == 5:
        if not comp.get("url"):
            out.append(Issue((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
        if comp.get("custom_id"):
            out.append(
                Issue(
                    (*path, "custom_id"),
                    "BUTTON_LINK_CANNOT_HAVE_CUSTOM_ID",
                    "A link button cannot have a custom id",
                )
            )
    elif style != 6:
        _check_custom_id(comp, path, out)
        if comp.get("url"):
            out.append(
                Issue(
                    (*path, "url"),
                    "BUTTON_NON_LINK_CANNOT_HAVE_URL",
                    "Only link buttons can have a url",
                )
            )
    if style != 6 and not comp.get("label") and not comp.get("emoji"):
        out.append(
            Issue(path, "BUTTON_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")
        )
    _max_len((*path, "label"), comp.get("label"), BUTTON_LABEL_MAX, out)
    return out


def check_select(comp: JSON, path: Path, *, in_modal: bool = False) -> list[Issue]:
    out: list[Issue] = []
    _check_custom_id(comp, path, out)
    _max_len((*path, "placeholder"), comp.get("placeholder"), PLACEHOLDER_MAX, out)
    min_v = comp.get("min_values", 1)
    max_v = comp.get("max_values", 1)
    if not 0 <= int(min_v) <= 25:
        out.append(Issue((*path, "min_values"), "NUMBER_TYPE_MAX", "min_values must be 0-25"))
    if not 1 <= int(max_v) <= 25:
        out.append(Issue((*path, "max_values"), "NUMBER_TYPE_MAX", "max_values must be 1-25"))
    if int(min_v) > int(max_v):
        out.append(
            Issue(
                (*path, "min_values"),
                "SELECT_COMPONENT_MIN_GREATER_THAN_MAX",
                "min_values > max_values",
            )
        )
    if comp.get("type") == 3:
        options = comp.get("options") or []
        if not options:
            out.append(
                Issue((*path, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            )
        if len(options) > SELECT_OPTIONS_MAX:
            out.append(
                Issue((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            )
        elif options and int(max_v) > len(options):
            out.append(
                Issue(
                    (*path, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_GREATER_THAN_OPTIONS",
                    "max_values > options",
                )
            )
        values: set[str] = set()
        for i, opt in enumerate(options):
            p: Path = (*path, "options", i)
            _max_len((*p, "label"), opt.get("label"), OPTION_TEXT_MAX, out, required=True)
            _max_len((*p, "value"), opt.get("value"), OPTION_TEXT_MAX, out, required=True)
            _max_len((*p, "description"), opt.get("description"), OPTION_TEXT_MAX, out)
            if opt.get("value") in values:
                out.append(
                    Issue(
                        (*p, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Option values must be unique",
                    )
                )
            values.add(opt.get("value"))
    return out


def check_action_row(row: JSON, path: Path, *, in_modal: bool = False) -> list[Issue]:
    out: list[Issue] = []
    children = row.get("components") or []
    if row.get("type") != 1:
        return [Issue((*path, "type"), "UNION_TYPE_CHOICES", "Value must be an action row (1)")]
    if not children:
        return [
            Issue((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        ]
    kinds = [c.get("type") for c in children]
    if any(k in SELECT_TYPES for k in kinds) and len(children) > 1:
        out.append(
            Issue(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select takes a whole action row",
            )
        )
    if len(children) > ROW_BUTTONS_MAX:
        out.append(
            Issue((*path, "components"), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        )
    for j, child in enumerate(children):
        p: Path = (*path, "components", j)
        t = child.get("type")
        if t == 2:
            out += check_button(child, p)
        elif t in SELECT_TYPES:
            out += check_select(child, p, in_modal=in_modal)
        elif t == 4 and in_modal:
            out += check_text_input(child, p)
        else:
            out.append(
                Issue(
                    (*p, "type"), "UNION_TYPE_CHOICES", f"Component type {t} not allowed in a row"
                )
            )
    return out


def check_action_rows(components: list[JSON], path: Path) -> list[Issue]:
    """Classic components: up to 5 action rows."""
    out: list[Issue] = []
    if len(components) > ROWS_MAX:
        out.append(Issue(path, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    for i, row in enumerate(components):
        if row.get("type") != 1:
            out.append(
                Issue(
                    (*path, i, "type"),
                    "COMPONENT_TYPE_REQUIRES_COMPONENTS_V2",
                    f"Component type {row.get('type')} needs MessageFlags.IS_COMPONENTS_V2"
                    if row.get("type") in V2_TOP_LEVEL
                    else "Top-level components must be action rows",
                )
            )
            continue
        out += check_action_row(row, (*path, i))
    _check_custom_ids(components, path, out)
    return out


def check_components_v2(components: list[JSON], path: Path) -> list[Issue]:
    """Components V2: layout components, 40 in all (nested ones count), 4000 chars of text."""
    out: list[Issue] = []
    everything = walk_components(components)
    if len(everything) > V2_COMPONENTS_MAX:
        out.append(
            Issue(
                path,
                "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                f"Must be {V2_COMPONENTS_MAX} or fewer components in total.",
            )
        )
    text = sum(len(c.get("content") or "") for c in everything if c.get("type") == 10)
    if text > V2_TEXT_MAX:
        out.append(
            Issue(
                path,
                "MESSAGE_TEXT_DISPLAY_TOTAL_LENGTH",
                f"Text displays exceed {V2_TEXT_MAX} characters",
            )
        )
    for i, comp in enumerate(components):
        out += _check_v2_component(comp, (*path, i), V2_TOP_LEVEL)
    _check_custom_ids(components, path, out)
    return out


def _check_v2_component(comp: JSON, path: Path, allowed: tuple[int, ...]) -> list[Issue]:
    out: list[Issue] = []
    t = comp.get("type")
    if t not in allowed:
        return [
            Issue((*path, "type"), "UNION_TYPE_CHOICES", f"Component type {t} not allowed here")
        ]
    if t == 1:
        out += check_action_row(comp, path)
    elif t == 17:
        children = comp.get("components") or []
        if not children:
            out.append(
                Issue((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            )
        for j, child in enumerate(children):
            out += _check_v2_component(child, (*path, "components", j), V2_IN_CONTAINER)
    elif t == 9:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 3:
            out.append(
                Issue(
                    (*path, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "A section holds 1 to 3 text displays",
                )
            )
        for j, child in enumerate(children):
            out += _check_v2_component(child, (*path, "components", j), (10,))
        accessory = comp.get("accessory")
        if not isinstance(accessory, dict):
            out.append(Issue((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required"))
        elif accessory.get("type") == 2:
            out += check_button(accessory, (*path, "accessory"), v2=True)
        elif accessory.get("type") != 11:
            out.append(
                Issue(
                    (*path, "accessory", "type"),
                    "UNION_TYPE_CHOICES",
                    "Accessory must be a button or thumbnail",
                )
            )
    elif t == 10:
        if not comp.get("content"):
            out.append(Issue((*path, "content"), "BASE_TYPE_REQUIRED", "This field is required"))
    elif t == 12:
        items = comp.get("items") or []
        if not 1 <= len(items) <= 10:
            out.append(
                Issue((*path, "items"), "BASE_TYPE_BAD_LENGTH", "A gallery holds 1 to 10 items")
            )
    return out


# -- modals, autocomplete, commands ---------------------------------------------------------


def check_text_input(comp: JSON, path: Path) -> list[Issue]:
    out: list[Issue] = []
    _check_custom_id(comp, path, out)
    _max_len((*path, "label"), comp.get("label"), TEXT_INPUT_LABEL_MAX, out)
    _max_len((*path, "placeholder"), comp.get("placeholder"), OPTION_TEXT_MAX, out)
    _max_len((*path, "value"), comp.get("value"), TEXT_INPUT_VALUE_MAX, out)
    if comp.get("style") not in (1, 2):
        out.append(Issue((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2)."))
    return out


def check_modal(data: JSON, prefix: Path = ("data",)) -> list[Issue]:
    out: list[Issue] = []
    _check_custom_id(data, prefix, out)
    _max_len((*prefix, "title"), data.get("title"), MODAL_TITLE_MAX, out, required=True)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        out.append(
            Issue(
                (*prefix, "components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 5 in length.",
            )
        )
    for i, comp in enumerate(components):
        p: Path = (*prefix, "components", i)
        t = comp.get("type")
        if t == 1:
            out += check_action_row(comp, p, in_modal=True)
        elif t == 18:
            _max_len((*p, "label"), comp.get("label"), TEXT_INPUT_LABEL_MAX, out, required=True)
            inner = comp.get("component") or {}
            if inner.get("type") == 4:
                out += check_text_input(inner, (*p, "component"))
            elif inner.get("type") in SELECT_TYPES:
                out += check_select(inner, (*p, "component"), in_modal=True)
        elif t != 10:
            out.append(
                Issue(
                    (*p, "type"), "UNION_TYPE_CHOICES", f"Component type {t} not allowed in a modal"
                )
            )
    _check_custom_ids(components, (*prefix, "components"), out)
    return out


def check_choices(choices: list[JSON], prefix: Path = ("data", "choices")) -> list[Issue]:
    out: list[Issue] = []
    if len(choices) > CHOICES_MAX:
        out.append(Issue(prefix, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    for i, ch in enumerate(choices):
        _max_len((*prefix, i, "name"), ch.get("name"), OPTION_TEXT_MAX, out, required=True)
        if isinstance(ch.get("value"), str):
            _max_len((*prefix, i, "value"), ch.get("value"), OPTION_TEXT_MAX, out)
    return out


def check_commands(commands: list[JSON]) -> list[Issue]:
    """Application command definitions (names, descriptions, option counts and order)."""
    out: list[Issue] = []
    names: set[tuple[str, int]] = set()
    for i, cmd in enumerate(commands):
        key = (str(cmd.get("name")), int(cmd.get("type", 1)))
        if key in names:
            out.append(
                Issue(
                    (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate name {key[0]}"
                )
            )
        names.add(key)
        if key[1] == 1:
            out += _check_chat_input((i,), cmd)
    return out


def _check_localizations(path: Path, node: JSON) -> list[Issue]:
    """A command's, option's or choice's translations: known locales, names that follow the
    name rules (commands and options only), texts of 1-100 characters."""
    out: list[Issue] = []
    for field in ("name_localizations", "description_localizations"):
        texts = node.get(field) or {}
        if not isinstance(texts, dict):
            out.append(Issue((*path, field), "DICT_TYPE_CONVERT", "Only dictionaries may be used"))
            continue
        for locale, text in texts.items():
            p: Path = (*path, field, locale)
            if locale not in DISCORD_LOCALES:
                out.append(Issue(p, "BASE_TYPE_CHOICES", "Value must be one of {locales}"))
            is_name = field == "name_localizations" and "value" not in node
            bad_name = is_name and (not COMMAND_NAME.match(str(text)) or text != str(text).lower())
            if bad_name:
                out.append(Issue(p, "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {text!r}"))
            elif not isinstance(text, str) or not 1 <= len(text) <= 100:
                out.append(Issue(p, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    return out


def _check_chat_input(path: Path, node: JSON) -> list[Issue]:
    out: list[Issue] = _check_localizations(path, node)
    name = node.get("name") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        out.append(
            Issue((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}")
        )
    desc = node.get("description") or ""
    if not 1 <= len(desc) <= 100:
        out.append(
            Issue(
                (*path, "description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        )
    options = node.get("options") or []
    if len(options) > 25:
        out.append(
            Issue((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        )
    seen_optional = False
    for j, opt in enumerate(options):
        p: Path = (*path, "options", j)
        if opt.get("type") in (1, 2):
            out += _check_chat_input(p, opt)
            continue
        if opt.get("required"):
            if seen_optional:
                out.append(
                    Issue(
                        p,
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must come first",
                    )
                )
        else:
            seen_optional = True
        out += _check_chat_input_leaf(p, opt)
    return out


def _check_chat_input_leaf(path: Path, opt: JSON) -> list[Issue]:
    out: list[Issue] = _check_localizations(path, opt)
    for k, choice in enumerate(opt.get("choices") or []):
        out += _check_localizations((*path, "choices", k), choice)
    name = opt.get("name") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        out.append(
            Issue((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}")
        )
    desc = opt.get("description") or ""
    if not 1 <= len(desc) <= 100:
        out.append(
            Issue(
                (*path, "description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        )
    choices = opt.get("choices") or []
    if len(choices) > CHOICES_MAX:
        out.append(
            Issue((*path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        )
    if choices and opt.get("autocomplete"):
        out.append(
            Issue(
                (*path, "autocomplete"),
                "AUTOCOMPLETE_AND_CHOICES",
                "Autocomplete and choices clash",
            )
        )
    return out
