//! Oska (UBC CPSC 322, 2004) for any n ≥ 4: diagonal forward steps and single capturing jumps.
