"""The Solara web app: the pages (``app``, ending with ``page``, as Mesa's examples do), their
components, and the edits of a hand-written model made on its picture."""
