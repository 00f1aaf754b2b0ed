#!/bin/bash -eu
# ClusterFuzzLite calls this inside the builder image: the project's own
# fuzz/build.sh builds every target into $OUT with $CXX, $CXXFLAGS and
# $LIB_FUZZING_ENGINE, with its options, dictionaries and seed corpora.
"$SRC/stridecheck/fuzz/build.sh"
