"""The reference site: Markdown pages generated from a build's records, built by mkdocs-material.

``generate`` writes the pages (``<out>/site-src/docs``) and an mkdocs configuration
(``<out>/site-src/mkdocs.yml``, ``site/handwritten/mkdocs.yml`` with the generated
folders and the navigation filled in); ``build`` then runs ``mkdocs build --strict``
into ``<out>/site``. Records are read only through :mod:`warscribe.schema.bundle`.
Hand-written pages, templates and assets live in ``site/handwritten/`` and are copied beside
the generated ones (``site/handwritten/index.md`` is the home page's introduction).
"""

from __future__ import annotations

from warscribe.site.generate import Generated, build, generate


def serve(*args, **kwargs):
    """mkdocs' development server in this process (see mkdocs_run.serve)."""
    # Imported when called: mkdocs_run is also the site build's child program (python -m),
    # which must not be imported by its own package first.
    from warscribe.site.mkdocs_run import serve as run

    return run(*args, **kwargs)

__all__ = ["Generated", "build", "generate", "serve"]
