-- Crawl 0.29 added this helper.
function soh_hangout() return "dis" end
function fixture_tree_setup(e) e.tags("tree_new") end
-- Crawl 0.32 added this helper.
function snake_statue_setup(e) end
