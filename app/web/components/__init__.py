"""Solara components of the browser demo, one concern per module."""
