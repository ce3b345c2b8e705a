"""What people use: the command line (``app.cli``), the Solara web app (``app.web``, the only
part that knows Solara) and the worlds picture both draw (``app.worlds``, no Solara)."""
