"""Input: labelled data read exactly from files (CSV, JSON, numpy, `.dat`, svmlight) and from
Python values, each becoming one `Dataset` of Fractions."""
