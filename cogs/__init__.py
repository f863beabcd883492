"""Thin discord.py extensions: slash commands and buttons -> engine actions -> replies."""
