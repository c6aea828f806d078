"""The local model: its fetch, and ToolForm measuring it through the local llama.cpp server."""
