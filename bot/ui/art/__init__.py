"""Card pictures drawn from code (Pillow only): faces, the table, hands and deck sheets.

Everything here is pure and thread-safe, so the bot can compose and encode in a worker thread
(`asyncio.to_thread(table_file, state)`) and keep the event loop free.
"""

from bot.ui.art.alt import describe_hand, describe_table
from bot.ui.art.encode import CONTENT_TYPE, EXTENSION, encode, hand_file, table_file
from bot.ui.art.faces import BASE_HEIGHT, BASE_WIDTH, back, face, swatch
from bot.ui.art.hand_picture import EVERY_COPY, deck_faces, deck_sheet, hand_picture
from bot.ui.art.table_picture import SeatState, TableState, table_picture

__all__ = [
    "BASE_HEIGHT",
    "BASE_WIDTH",
    "CONTENT_TYPE",
    "EVERY_COPY",
    "EXTENSION",
    "SeatState",
    "TableState",
    "back",
    "deck_faces",
    "deck_sheet",
    "describe_hand",
    "describe_table",
    "encode",
    "face",
    "hand_file",
    "hand_picture",
    "swatch",
    "table_file",
    "table_picture",
]
