# The bundled vocabulary, quests and vaults, installed under
# $(pkgdatadir)/edit and $(pkgdatadir)/des (qg_default_edit_dir()).
qgeditdir = $(pkgdatadir)/edit
dist_qgedit_DATA = \
	lib/edit/a_info.txt \
	lib/edit/f_info.txt \
	lib/edit/k_info.txt \
	lib/edit/r_info.txt \
	lib/edit/mapping.txt \
	lib/edit/q_info.txt \
	lib/edit/q_pref.txt \
	lib/edit/q_crypt.txt \
	lib/edit/q0000001.txt \
	lib/edit/q0000002.txt \
	lib/edit/q0000003.txt \
	lib/edit/t0000001.txt

qgdesdir = $(pkgdatadir)/des
dist_qgdes_DATA = \
	lib/des/questgrid_mini.des \
	lib/des/questgrid_vaults.des \
	lib/des/colours.txt
