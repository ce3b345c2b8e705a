"""Event models and the ready-made events built from them."""
