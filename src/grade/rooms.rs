//! Where a submission's runs get their folders in the class's scratch.

use std::path::{Path, PathBuf};

use crate::sandbox::scratch::{Bounds, Scratch};

/// Where a submission's runs get their folders: its own folder (the build, position cases) and, for
/// each run of a run case, a fresh folder of its own with the same bounds (a tmpfs under `full`), so
/// what one run writes never takes the room of another run of the submission, whichever runs first or
/// at once (`grade::ahead`).
#[derive(Debug)]
pub struct Rooms<'a> {
    scratch: &'a Scratch,
    bounds: Option<Bounds>,
    base: PathBuf,
    name: String,
}

impl<'a> Rooms<'a> {
    /// The rooms of the submission called `name` in `scratch` (a name no other submission there has).
    ///
    /// # Errors
    /// The submission's own folder cannot be made.
    pub fn new(scratch: &'a Scratch, name: &str, bounds: Option<Bounds>) -> std::io::Result<Self> {
        let base = scratch.sub(name, bounds)?;
        Ok(Rooms {
            scratch,
            bounds,
            base,
            name: name.to_string(),
        })
    }

    /// [`Rooms::new`], or, should the submission's folder not be made, rooms whose runs report why
    /// (the build's own attempt first).
    #[must_use]
    pub fn or_unmade(scratch: &'a Scratch, name: &str, bounds: Option<Bounds>) -> Self {
        Rooms::new(scratch, name, bounds).unwrap_or_else(|_| Rooms {
            scratch,
            bounds,
            base: scratch.path().join(name),
            name: name.to_string(),
        })
    }

    /// The submission's own folder.
    #[must_use]
    pub fn base(&self) -> &Path {
        &self.base
    }

    /// A fresh folder for one run. Should it not be made, the run's own attempt to make its work
    /// folder says why.
    pub(super) fn make(&self, what: &str) -> PathBuf {
        let name = format!("{}-{what}", self.name);
        self.scratch
            .sub(&name, self.bounds)
            .unwrap_or_else(|_| self.scratch.path().join(name))
    }

    /// Removes a run's folder. A tree that will not go is left for the scratch's end.
    pub(super) fn release(&self, dir: &Path) {
        let _ = self.scratch.release(dir);
    }
}
