/* Gadget in C */
struct Gadget {
    int size;
};

struct Gadget *make_gadget(void) {
    static struct Gadget Gadget;
    return &Gadget;
}
