"""The Solara web app and the command line; the only package that knows Solara."""
