/// Gadget doc comment.
pub struct Gadget {
    pub size: u32,
}

pub fn make() -> Gadget {
    Gadget { size: 1 }
}
