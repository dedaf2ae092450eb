"""What the example's data files hold (domain.kit.datafile)."""

from ...kit.datafile import Described

DATA_FILES = {
    "cards.json": Described("The six cards by value (1-6), each with the name and text a player reads on its face."),
}
