# The bundled vocabulary, quests and vaults, installed under $(pkgdatadir).
nobase_dist_pkgdata_DATA +=
