"""Errors a user of the model checker can meet, all ValueErrors so callers may catch broadly."""


class ModelError(ValueError):
    """The model cannot answer: an unknown agent or atom, a world out of range, bad arrays."""


class AnnouncementError(ValueError):
    """A public announcement is false at the actual world, so it could not truthfully be made."""

    def __init__(self, formula: object) -> None:
        self.formula = formula
        super().__init__(
            f"cannot announce {formula}: it is false at the actual world "
            "(a truthful public announcement never removes the actual world)"
        )


class ModelTooLargeError(ValueError):
    """Drawing was asked for more worlds than a picture can show."""

    def __init__(self, n_worlds: int, max_worlds: int) -> None:
        self.n_worlds = n_worlds
        self.max_worlds = max_worlds
        super().__init__(
            f"the model has {n_worlds:,} worlds, more than max_worlds={max_worlds:,} to draw; "
            "draw the worlds one agent considers possible (agent=...) or announce more first"
        )
