"""ToolForm: tool definitions shown to language models, and their replies read back."""

__version__ = "0.1.0"
