"""boardlog eventstore."""
