// Gadget in C++
namespace shop {
class Gadget {
 public:
  int size;
};
}  // namespace shop

shop::Gadget make() { return shop::Gadget(); }
