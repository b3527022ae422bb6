-- Crawl 0.28 had this helper; 0.29 dropped it.
function hell_branches_remaining() return 4 end
function fixture_tree_setup(e) e.tags("tree_old") end
