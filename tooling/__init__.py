"""The course's own tooling, apart from what a learner's notebook imports (:mod:`helpers`).

Used by the people who change the course and by its tests; never by a notebook, and not part of the
helpers wheel. It may import :mod:`helpers`; :mod:`helpers` never imports it
(``tests/test_import_graph.py``).

* :mod:`tooling.notebooks`: execute notebooks with nbclient (``python -m tooling.notebooks``,
  ``make notebooks``), on :mod:`tooling.kernel_env` (a kernel's environment) and
  :mod:`tooling.notebook_files` (reading and writing notebook files);
* :mod:`tooling.translation`: build and check the Chinese edition (``python -m tooling.translation``,
  ``make zh``, ``make worklist``);
* :mod:`tooling.coursemap`: the generated course map, Next cells and times (``make course-map``);
* :mod:`tooling.scaffold`: a new notebook's skeleton (``make new-notebook``);
* :mod:`tooling.bench`: notebook and test-suite timings (``make bench``);
* :mod:`tooling.drift`: what the newest releases would change (``make drift``);
* :mod:`tooling.nbgrader_export`: the exercises in nbgrader's layout (``make nbgrader-export``).
"""
