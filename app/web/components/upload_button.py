"""An Upload button that tells the server a file's name and size before any of it is sent.

ipywidgets' ``FileUpload`` sends the whole file over the page's socket at once, so a file of
16 MB or more closed the socket and the page said nothing. This button keeps the file in the
browser (as Solara's drop zone does) and the server asks for the bytes it wants, in chunks of
1 MB: a file past the page's limit is refused from its announced size, and none of it is sent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, cast

import solara
import traitlets
from ipyvue import Template
from ipyvuetify.extra import FileInput
from ipywidgets import widget_serialization
from solara.components.file_drop import FileInfo


class UploadWidget(FileInput):
    """The browser side: a button and a hidden ``<input type=file>``; the chunked reads are
    ipyvuetify's ``FileInput`` protocol (``jupyter_read`` answered by ``upload``)."""

    template = traitlets.Instance(Template).tag(sync=True, **widget_serialization)
    template_file = (__file__, "upload_button.vue")
    label = traitlets.Unicode("Upload").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)


@solara.component
def UploadButton(on_file: Callable[[FileInfo], None], accept: str = "", label: str = "Upload",
                 title: str = ""):
    """A button that opens the file chooser; ``on_file`` gets the chosen file's name, size and
    a lazy ``file_obj`` (read only what you need), in a thread, as ``solara.FileDrop`` does."""
    announced, set_announced = solara.use_state(cast(list[dict[str, Any]], []))
    chosen, set_chosen = solara.use_state(cast(list[FileInfo], []))
    button = UploadWidget.element(accept=accept, label=label, title=title, multiple=False,
                                  on_file_info=set_announced)  # type: ignore[attr-defined]

    def wire() -> None:
        """Each new choice gets file objects of its own (the widget counts choices in
        ``version``; a read of an older choice stops)."""
        if not announced:
            return
        widget = cast(UploadWidget, solara.get_widget(button))
        widget.version += 1
        widget.reset_stats()
        set_chosen(cast(list[FileInfo], widget.get_files()))

    solara.use_effect(wire, [announced])

    def hand_over(cancel: threading.Event) -> None:
        for file in chosen[:1]:
            file["data"] = None
            on_file(file)

    result = solara.use_thread(hand_over, [chosen])
    if result.error:
        raise result.error
    return button
