"""boardlog api."""
