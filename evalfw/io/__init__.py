"""Reading evaluation inputs from disk (shared by ``evalfw score`` and ``evalfw run``)."""
