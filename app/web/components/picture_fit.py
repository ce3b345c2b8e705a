"""The worlds picture fitted to the first screen, measured in the browser: the room left under
what is above the picture and its caption (the header, the formula, an open event box of any
height), and whether the event model drawn beside the picture fits there or goes under the
caption. A server cannot know these heights, so a small script measures them and keeps them in
CSS variables (``--ttr-room``, ``--ttr-event-order``) the picture's row reads; before it runs,
the row's own guess stands."""

from __future__ import annotations

import ipyvuetify as v


class PictureFit(v.VuetifyTemplate):
    """Nothing to see: the script of ``picture_fit.vue``, which measures the row around it."""

    template_file = (__file__, "picture_fit.vue")
