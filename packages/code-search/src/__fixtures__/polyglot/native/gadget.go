package native

// Gadget is a Go struct.
type Gadget struct {
	Size int
}

func Make() Gadget {
	return Gadget{Size: 1}
}
