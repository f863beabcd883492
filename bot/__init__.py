"""UNO host for Discord."""
