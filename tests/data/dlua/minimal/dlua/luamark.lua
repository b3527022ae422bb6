function fixture_marker(pars) return pars end
