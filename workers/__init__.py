"""boardlog workers."""
