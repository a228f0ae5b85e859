# Gadget in a Python comment
class Gadget:
    def __init__(self, size):
        self.size = size


def make():
    return Gadget(1), "Gadget string"
