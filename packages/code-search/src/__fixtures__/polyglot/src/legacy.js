/* A Gadget factory in JavaScript. */
class Gadget {
  constructor(size) {
    this.size = size;
  }
}
const g = new Gadget(2);
module.exports = { Gadget, g };
