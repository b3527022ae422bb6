-- Crawl 0.29 added this helper; 0.31 renamed the slave markers.
function soh_hangout() return "dis" end
function fixture_tree_setup(e) e.tags("tree_between") end
