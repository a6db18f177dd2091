"""New projects and new tasks, written into a user's folder: `ponybench init` (`project`) and
`ponybench task new` (`newtask`), on the never-overwrite primitives of `files`."""
