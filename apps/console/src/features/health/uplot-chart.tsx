import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

/**
 * A uPlot chart that follows its container's width. The plot is created when the options change
 * (series set, scales, plugins) and only fed new data otherwise; it is destroyed on unmount.
 */
export function UPlotChart({
  options,
  data,
  height,
  label,
}: {
  options: ChartOptions;
  data: uPlot.AlignedData;
  height: number;
  /** Accessible name of the chart (it is drawn on a canvas). */
  label: string;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  dataRef.current = data;

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return undefined;
    const width = Math.max(200, container.clientWidth);
    const plot = new uPlot({ ...options, width, height }, dataRef.current, container);
    plotRef.current = plot;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[0];
      if (entry === undefined) return;
      const nextWidth = Math.max(200, Math.floor(entry.contentRect.width));
      if (nextWidth !== plot.width) plot.setSize({ width: nextWidth, height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [options, height]);

  useEffect(() => {
    plotRef.current?.setData(data);
  }, [data]);

  return <Box ref={containerRef} role="img" aria-label={label} w="100%" mih={height} />;
}
