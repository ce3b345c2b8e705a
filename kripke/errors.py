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

    def __init__(self, n_worlds: int, max_worlds: int, agent: object = None) -> None:
        self.n_worlds = n_worlds
        self.max_worlds = max_worlds
        if agent is None:
            what = f"the model has {n_worlds:,} worlds"
            advice = "draw the worlds one agent considers possible (agent=...)"
        else:
            what = f"agent {agent!r} considers {n_worlds:,} worlds possible"
            advice = "draw fewer worlds (restrict the model)"
        super().__init__(
            f"{what}, more than max_worlds={max_worlds:,} to draw; {advice} "
            "or announce more first"
        )
