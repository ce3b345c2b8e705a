"""Players: policies, Mesa agents and the TTRModel that runs the epistemic game."""
