"""What is settled before any cell runs, without pytest: the option table and the settings, the
frozen plan, the earlier run it resumes, its provenance, the pre-flight and the price."""
