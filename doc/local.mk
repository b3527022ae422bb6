# Hand-written manual pages.
dist_man_MANS += doc/questgrid.1
