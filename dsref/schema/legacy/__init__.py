"""Sections that DeepSpeed 0.19.7 and 0.19.8 removed; any use of them is now an error."""
