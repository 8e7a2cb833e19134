//! Three Men's Morris under the Adelaide rules: placement, then orthogonal steps; rows and columns win.
