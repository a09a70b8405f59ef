"""Built-in components. Each module here is an ordinary plugin registered through the same
hooks a third-party plugin uses; nothing else in evalfw treats them specially."""
