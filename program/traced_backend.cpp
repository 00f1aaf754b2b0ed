#include "program/traced_backend.h"

namespace sc {

Overlap to_overlap(engine::MemOverlap o) {
  switch (o) {
    case engine::MemOverlap::No: return Overlap::No;
    case engine::MemOverlap::Yes: return Overlap::Yes;
    case engine::MemOverlap::TooHard: return Overlap::TooHard;
  }
  return Overlap::TooHard;
}

}  // namespace sc
