#include "engine/nan_bits.h"

#include "engine/version_profile.h"

namespace sc::engine {

HalfNan profile_half_nan() {
  return since(Change::HalfFromFloatKeepsNanPayload) ? HalfNan::KeepPayload : HalfNan::Canonical;
}

bool half_to_float_copy_tail_all_ones() { return since(Change::HalfToFloatCopyTailAllOnes); }

bool float_to_half_copy_tail_all_ones() {
  return since(Change::CopyFloatHalfSkipsOverlapChecks) && !since(Change::FloatToHalfCopyTailKeepsPayload);
}

bool float_to_half_copy_chunks_keep_payload() {
  return since(Change::CopyFloatHalfSkipsOverlapChecks) && since(Change::FbgemmFloatToHalfChunksKeepPayload) &&
         !since(Change::HalfFromFloatKeepsNanPayload);
}

bool neg_reduced_float_vector_flips_sign() { return since(Change::NegReducedFloatVectorFlipsSign); }

}  // namespace sc::engine
