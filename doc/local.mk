dist_man_MANS +=
