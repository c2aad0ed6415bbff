import { TablePagination } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useIsPhone } from './responsive';

/** The page sizes a paged list offers (on wider screens than phones). */
export const ROWS_PER_PAGE = [10, 20, 50];

/** A pager that spans its paper edge to edge: its own left margin, and the toolbar wraps on narrow screens. */
const EDGE_TO_EDGE = { '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', rowGap: 0.5, pl: { xs: 1.5, md: 2 } } } as const;

/**
 * The pager under a list shown as a table, or as cards on phones
 * (responsive.ts): the range and the arrows, and beyond phone widths the
 * rows-per-page choice (on phones it goes, so the range and the arrows keep
 * one line). Its label is the dashboard's words (a full-width colon in
 * Chinese), not MUI's language pack's. `page` counts from 0.
 */
export const TablePager = ({
  count,
  page,
  pageSize,
  onPage,
  onPageSize,
  label,
  edgeToEdge = false,
}: {
  count: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
  /** The rows-per-page label; default react-admin's. */
  label?: string;
  edgeToEdge?: boolean;
}) => {
  const translate = useTranslate();
  const isPhone = useIsPhone();
  return (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={isPhone ? [] : ROWS_PER_PAGE}
      labelRowsPerPage={label ?? translate('ra.navigation.page_rows_per_page')}
      onPageChange={(_, next) => onPage(next)}
      onRowsPerPageChange={(event) => onPageSize(Number(event.target.value))}
      {...(edgeToEdge ? { sx: EDGE_TO_EDGE } : {})}
    />
  );
};
