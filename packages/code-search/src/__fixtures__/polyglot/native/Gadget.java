// Gadget in Java.
public class Gadget {
    private int size;

    public static Gadget make() {
        return new Gadget();
    }
}
