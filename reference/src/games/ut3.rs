//! UT3, the IIIT 2015 Ultimate tic-tac-toe variant with the corner rule and the abandon rule.
