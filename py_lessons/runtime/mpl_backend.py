"""matplotlib backend whose ``show()`` sends every open figure to the cell's output as SVG.

Selected with ``MPLBACKEND=module://py_lessons.runtime.mpl_backend`` before pyplot is imported.
"""

from matplotlib.backend_bases import FigureManagerBase, _Backend
from matplotlib.backends.backend_agg import FigureCanvasAgg

from . import figures


@_Backend.export
class _CaptureBackend(_Backend):
    FigureCanvas = FigureCanvasAgg
    FigureManager = FigureManagerBase

    @staticmethod
    def show(*args, **kwargs):
        import matplotlib.pyplot as plt

        for number in plt.get_fignums():
            figures.emit_figure(plt.figure(number))
        plt.close("all")
