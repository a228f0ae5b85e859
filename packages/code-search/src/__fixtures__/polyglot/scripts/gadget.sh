#!/bin/sh
# Gadget in a shell comment
Gadget() {
  echo "Gadget"
}
Gadget
