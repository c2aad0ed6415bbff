import { Box, Pagination } from '@mui/material';
import { useListContext } from 'react-admin';

/** The pages of a card list (inside a ListBase): nothing when everything fits on one. */
export const PagePagination = () => {
  const { page, perPage, total, setPage } = useListContext();
  const pages = Math.ceil((total ?? 0) / perPage);
  if (pages <= 1) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
      <Pagination count={pages} page={Math.min(page, pages)} siblingCount={0} color="primary" onChange={(_, next) => setPage(next)} />
    </Box>
  );
};
